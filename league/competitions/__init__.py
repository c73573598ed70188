"""Competitions, Django side: the tournament formats as classes behind one protocol
(``formats``), on top of the pure algorithms of league/formats/."""
