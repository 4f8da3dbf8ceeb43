#!/usr/bin/env python3
"""A small cipher puzzle: the answers are stored in rot13 so they are not read by accident."""
import codecs
import random

PUZZLES = [("Gur dhvpx oebja sbk", "The quick brown fox"), ("Uryyb jbeyq", "Hello world")]

q, _ = random.choice(PUZZLES)
print("Decode:", q)
guess = input("> ")
print("correct!" if codecs.encode(guess, "rot13") == q else "answer: " + codecs.decode(q, "rot13"))
