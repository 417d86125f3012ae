"""Hand-made grids with known sums and no column of three equal cards (reveal 0 and 1)."""

# The three-player doubling example of seed 000: the ender A scores 10, B 24, C 10.
A10 = [5, 4, 0, 0, -1, -2, 1, 0, 1, 2, -1, 1]
B24 = [2, 1, 3, 3, 2, 1, 3, 3, 1, 2, 1, 2]
C10 = [0, 1, 2, 0, 3, 0, -1, 4, 0, -1, 1, 1]

# The four-player doubling example of seed 001: Alice 35 ends, Bob 28, Carol 31, Dave 40.
ALICE35 = [12, 11, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2]
BOB28 = [3, 3, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2]
CAROL31 = [4, 4, 5, 5, 4, 4, 5, 0, 0, 0, 0, 0]
DAVE40 = [6, 6, 6, 6, 5, 5, 0, 0, -2, -2, 5, 5]

# Negative and zero scores: the ender's -1 against -5, and 0 against 0.
MINUS1 = [12, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, 0]
MINUS5 = [0, -2, 1, -2, 1, 0, -1, 0, 0, -1, 0, -1]
ZERO_ENDER = [12, -2, -1, -1, -2, -1, 0, 0, -1, -1, -2, -1]
ZERO_OTHER = [0, 1, 0, 1, 1, 0, 1, 0, -1, -1, -1, -1]

# High grids for the end of the game (reveal 8 and 9 so that they do not start).
HUNDRED = [12, 12, 12, 12, 11, 11, 11, 11, 2, 2, 2, 2]
NINETY_NINE = [12, 12, 12, 12, 11, 11, 11, 11, 2, 2, 2, 1]
