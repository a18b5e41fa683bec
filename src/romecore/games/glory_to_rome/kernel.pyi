"""Type stubs for romecore.games.glory_to_rome.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
MAX_LEGAL: int
ACTION_BLOCKS: dict[str, int]
TENSOR_COMMON: int
TENSOR_PLAYER: int
TENSOR_SLOT: int
TENSOR_FRAME: int
TENSOR_BLOCKS: dict[str, tuple[int, int]]
