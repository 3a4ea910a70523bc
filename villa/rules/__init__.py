"""The referee: every rule of Villa Paletti as a pure-Python state machine (no Panda3D here)."""
