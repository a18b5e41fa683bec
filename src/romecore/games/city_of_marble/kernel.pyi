"""Type stubs for romecore.games.city_of_marble.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
MAX_LEGAL: int
GAME_LENGTH_BOUND: int
ACTION_BLOCKS: dict[str, int]
TENSOR_COMMON: int
TENSOR_PLAYER: int
TENSOR_BLOCKS: dict[str, tuple[int, int]]
