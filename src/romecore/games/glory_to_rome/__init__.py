"""Glory to Rome (Carl Chudyk; Cambridge Games Factory, I.V edition 2007), 2 to 5 players.
PLACEHOLDER_DOC
"""
