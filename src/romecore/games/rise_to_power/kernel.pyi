"""Type stubs for romecore.games.rise_to_power.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
MAX_GAME_LENGTH: int
MAX_LEGAL: int
ACTION_BLOCKS: dict[str, int]
TENSOR_COMMON: int
TENSOR_PER_PLAYER: int
TENSOR_BLOCKS: dict[str, tuple[int, int]]
