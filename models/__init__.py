"""Optimization models: CP-SAT and LP/MILP formulations of questions about positions."""
