"""A small app that takes PIX payments and pays out: what the tests in ../tests test."""
