"""Tuning jobs: the tuner's arguments as a model, its request rendered and read back, its checks."""
