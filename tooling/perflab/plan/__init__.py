"""The plan: experiment files, their modes (interleaved, duet), the flags over them, lifetimes planned from a pilot."""
