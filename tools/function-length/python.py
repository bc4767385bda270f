#!/usr/bin/env python3
"""Functions of Python files, found by Python's own parser (ast): python3 python.py FILE...
Prints one JSON object a file, {"file", "functions": [{"name", "start", "end", "lines"}]}: every function
and method, nested ones included, with 1-based lines from its `def` line (decorators left out) to its
last line."""
import ast
import json
import sys


def functions(tree):
    return [{"name": node.name, "start": node.lineno, "end": node.end_lineno,
             "lines": node.end_lineno - node.lineno + 1}
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    print(json.dumps({"file": path, "functions": functions(tree)}))
