"""Competition formats, pure Python (no Django): who plays whom, and in what order.

Modules: ``round_robin`` (FIDE Berger tables), ``single_elimination`` and
``double_elimination`` (brackets that advance winners), ``swiss`` (score groups,
first-move balance, weighted matching on a sparse graph), ``arena`` (pair as soon as
players are free, Lichess-style streak points), ``tiebreaks`` (FIDE C.07) and
``matches`` (a pairing played as a series of games), ``trf`` (FIDE's Tournament Report
File) and ``swiss_cli`` (bbpPairings' command line for the Swiss pairers). See docs/formats.md.
"""
