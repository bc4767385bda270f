"""The floors of docs/architecture.md hold in the tree: every folder of cpp/ is on a floor, and no
#include points to a higher floor or to a neighbour on the same floor.

  /usr/bin/python3 -m unittest discover -s tests/python
"""
import os
import re
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CPP = os.path.join(ROOT, "cpp")


def floors():
    """{unit: floor} from the table between the markers of docs/architecture.md; a unit is a folder
    of cpp/ ("kernels") or a header of cpp/ itself ("error.h")."""
    text = open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8").read()
    table = text[text.index("<!-- floors:"):text.index("<!-- end of floors -->")]
    out = {}
    for row in re.findall(r"^\| (`cpp/[^|]+) \| (\d+) \|", table, re.M):
        for unit in re.findall(r"`cpp/([^`]+)`", row[0]):
            out[unit] = int(row[1])
    return out


def unit_of(path):
    """The unit of a path relative to cpp/: its folder, or for a file of cpp/ itself its header."""
    head, _, rest = path.partition("/")
    if rest:
        return head
    return os.path.splitext(path)[0] + ".h"


class FloorsTest(unittest.TestCase):
    def test_every_folder_and_top_level_header_is_on_a_floor(self):
        table = floors()
        for name in os.listdir(CPP):
            unit = name if os.path.isdir(os.path.join(CPP, name)) else os.path.splitext(name)[0] + ".h"
            self.assertIn(unit, table, f"cpp/{name} is on no floor of docs/architecture.md")
        for unit in table:
            self.assertTrue(os.path.exists(os.path.join(CPP, unit)), f"docs/architecture.md names cpp/{unit}, which is gone")

    def test_includes_point_down_or_stay_home(self):
        table = floors()
        bad = []
        for folder, _, files in os.walk(CPP):
            for name in files:
                path = os.path.relpath(os.path.join(folder, name), CPP)
                here = unit_of(path)
                for line in open(os.path.join(CPP, path), encoding="utf-8"):
                    m = re.match(r'#include "([^"]+)"', line)
                    if not m or not os.path.exists(os.path.join(CPP, m.group(1))):
                        continue
                    there = unit_of(m.group(1))
                    if there != here and table[there] >= table[here]:
                        bad.append(f"cpp/{path} (floor {table[here]}) includes {m.group(1)} (floor {table[there]})")
        self.assertEqual(bad, [])

    def test_only_the_model_file_and_the_cli_speak_json(self):
        # Issue 48: below cpp/cli the engine speaks C++; JSON is the model file's header format
        # (cpp/model) and the native CLI's output. A header that includes a JSON library passes it
        # on, so includes are followed through the headers of cpp/.
        def includes(path):
            text = open(os.path.join(CPP, path), encoding="utf-8").read()
            return re.findall(r'#include [<"]([^>"]+)[>"]', text)

        def speaks_json(path, seen):
            for name in includes(path):
                if name.startswith("nlohmann/") or name in ("json.h", "rapidjson/document.h", "simdjson.h"):
                    return True
                if os.path.exists(os.path.join(CPP, name)) and name not in seen:
                    seen.add(name)
                    if speaks_json(name, seen):
                        return True
            return False

        bad = []
        for folder, _, files in os.walk(CPP):
            for name in files:
                path = os.path.relpath(os.path.join(folder, name), CPP)
                if path.split("/")[0] in ("model", "cli") or name.endswith(".in") or name.endswith(".json"):
                    continue
                if speaks_json(path, set()):
                    bad.append(f"cpp/{path}")
        self.assertEqual(bad, [])

    def test_the_bar_of_issue_18(self):
        # Named outright: nothing in kernels or layers looks up at the model.
        table = floors()
        self.assertLess(table["kernels"], table["model"])
        self.assertLess(table["layers"], table["model"])


if __name__ == "__main__":
    unittest.main()
