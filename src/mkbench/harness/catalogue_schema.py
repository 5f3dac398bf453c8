"""The schema of ``config/reproduction.yaml`` (:mod:`mkbench.harness.catalogue` reads and checks it):
the papers, and per item its targets, compared metrics and tolerances, ablations, data differences,
the paper's run counts and grids. The keys are documented at the top of the catalogue itself."""

#: Why an item cannot be rebuilt; an entry without targets gives one of these.
REASONS = ("data not public", "features not available", "not configured yet")

_STRINGS = {"type": "array", "minItems": 1, "items": {"type": "string"}}
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["papers", "items"],
    "properties": {
        "report": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "title": {"type": "string"},
                "scope": {"type": "string"},
                "easy": {"type": "string"},
                "hard": {"type": "string"},
            },
        },
        "papers": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["citation"],
                "properties": {
                    "citation": {"type": "string"},
                    "text": {"type": "string"},
                    "verdict": {"type": "string"},
                },
            },
        },
        "items": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["paper", "item", "shows"],
                "properties": {
                    "paper": {"type": "string"},
                    "item": {"type": "string"},
                    "shows": {"type": "string"},
                    "note": {"type": "string"},
                    "finding": {"type": "string"},
                    "protocol": {"type": "string"},
                    "tables": _STRINGS,
                    "figures": _STRINGS,
                    "script": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["command", "outputs"],
                        "properties": {
                            "command": {"type": "string", "pattern": r"^python \S+\.py"},
                            "outputs": _STRINGS,
                        },
                    },
                    "rows": {
                        "type": "object",
                        "additionalProperties": False,
                        "minProperties": 1,
                        "properties": {"datasets": _STRINGS, "methods": _STRINGS},
                    },
                    "compare": {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": {
                            "anyOf": [
                                {"type": "number", "exclusiveMinimum": 0},
                                {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?%$"},
                            ]
                        },
                    },
                    "reason": {"enum": list(REASONS)},
                    "sensitivity": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["table", "variants"],
                            "dependentRequired": {"metrics": ["reason"], "reason": ["metrics"]},
                            "properties": {
                                "table": {"type": "string"},
                                "variants": {"type": "string", "pattern": r"^\{method\}.+$"},
                                "datasets": {
                                    "type": "object",
                                    "minProperties": 1,
                                    "additionalProperties": {"type": "string"},
                                },
                                "metrics": _STRINGS,
                                "reason": {"type": "string", "minLength": 1},
                            },
                        },
                    },
                    "readings": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["reading", "tables"],
                            "properties": {"reading": {"type": "string", "minLength": 1}, "tables": _STRINGS},
                        },
                    },
                    "paper_runs": {
                        "oneOf": [
                            {"type": "integer", "minimum": 2},
                            {
                                "type": "object",
                                "minProperties": 1,
                                "additionalProperties": {"type": "integer", "minimum": 2},
                            },
                        ]
                    },
                    "paper_grids": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["parameter", "quote"],
                            "properties": {
                                "parameter": {"type": "string"},
                                "methods": _STRINGS,
                                "quote": {"type": "string"},
                            },
                        },
                    },
                    "data_differs": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["datasets", "metrics", "reason"],
                            "properties": {
                                "datasets": _STRINGS,
                                "metrics": _STRINGS,
                                "methods": _STRINGS,
                                "reason": {"type": "string", "minLength": 1},
                            },
                        },
                    },
                },
            },
        },
    },
}
