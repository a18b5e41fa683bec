"""Type stubs for romecore.games.great_city_of_rome.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
MAX_LEGAL: int
MAX_GAME_LENGTH: int
ACTION_BLOCKS: dict[str, int]
