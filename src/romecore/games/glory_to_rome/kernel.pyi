"""Type stubs for romecore.games.glory_to_rome.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
MAX_LEGAL: int
ACTION_BLOCKS: dict[str, int]
