"""Helpers of the Official T-Tic-T-Tac-Toe variant: board geometry and the five-game match."""
