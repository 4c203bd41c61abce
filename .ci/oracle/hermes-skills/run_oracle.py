#!/usr/bin/env python3
"""Hermes Agent 0.21.3's skills index for Hermes homes, built by Hermes's own
functions (pinned outside this repository, see PROVENANCE.md here).

    run_oracle.py UPSTREAM_DIR JOBS_JSON

UPSTREAM_DIR holds the pinned files (agent/prompt_builder.py, agent/skill_utils.py
and the stubs); JOBS_JSON is a list of jobs, each

    {"home": "/abs/home", "tools": [...] | null, "toolsets": [...] | null,
     "platform": "", "environments": ["docker", ...]}

and the output (stdout) is a JSON list of the indexes, one string per job, in
order. Each job calls build_skills_system_prompt(available_tools=...,
available_toolsets=..., compact_categories=None, skills_dir_override=HOME/skills)
as agent/system_prompt.py does for a CLI session (compact categories come from
the opt-in focus mode, off by default). Before each job every cache is dropped
(the in-process index cache, the raw config cache, the environment verdicts),
so no job sees another's answer; the on-disk snapshot is neither read (no home
has one) nor written (utils.atomic_json_write is a stub).

Session model, stated once here and in docs/hermes-0.21.3.md: Linux
(sys.platform "linux", not Termux); HERMES_PLATFORM and HERMES_SESSION_PLATFORM
set to the job's platform, or unset when it is ""; the environments kanban,
docker and s6 active only when the job names them; no skills.external_dirs and
no trusted project (get_all_skills_dirs() -> [skills_dir],
get_project_skills_dirs() -> []). Python >= 3.10 and PyYAML (python3-yaml).
"""
import json
import logging
import os
import sys
from pathlib import Path

UPSTREAM = Path(sys.argv[1]).resolve()
JOBS = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
sys.path.insert(0, str(UPSTREAM))
sys.dont_write_bytecode = True
# Hermes logs a warning per unreadable SKILL.md; the oracle's output is stdout only.
logging.disable(logging.CRITICAL)

import agent.skill_utils as skill_utils  # noqa: E402

ACTIVE_ENVIRONMENTS: set = set()
for _name in ("kanban", "docker", "s6"):
    skill_utils._ENV_DETECTORS[_name] = (lambda n: (lambda: n in ACTIVE_ENVIRONMENTS))(_name)


def _all_skills_dirs():
    return [skill_utils.get_skills_dir()]


skill_utils.get_all_skills_dirs = _all_skills_dirs
skill_utils.get_project_skills_dirs = lambda: []

import agent.prompt_builder as prompt_builder  # noqa: E402

results = []
for job in JOBS:
    prompt_builder.clear_skills_system_prompt_cache()
    skill_utils._raw_config_cache_clear()
    skill_utils._ENV_DETECT_CACHE.clear()
    ACTIVE_ENVIRONMENTS.clear()
    ACTIVE_ENVIRONMENTS.update(job.get("environments") or [])
    for var in ("HERMES_PLATFORM", "HERMES_SESSION_PLATFORM"):
        if job.get("platform"):
            os.environ[var] = job["platform"]
        else:
            os.environ.pop(var, None)
    os.environ["HERMES_HOME"] = job["home"]
    tools = job.get("tools")
    toolsets = job.get("toolsets")
    results.append(prompt_builder.build_skills_system_prompt(
        available_tools=set(tools) if tools is not None else None,
        available_toolsets=set(toolsets) if toolsets is not None else None,
        compact_categories=None,
        skills_dir_override=Path(job["home"]) / "skills",
    ))
json.dump(results, sys.stdout, ensure_ascii=False)
