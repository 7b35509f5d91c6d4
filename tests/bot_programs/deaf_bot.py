"""A bot that never reads its stdin (the arena must not wait on it past each decision's timeout)."""
import time

time.sleep(600)
