"""Type stubs for romecore.games.great_city_of_rome.kernel (a Cython module)."""

kernel_capsule: object
STATE_SIZE: int
NUM_ACTIONS: int
