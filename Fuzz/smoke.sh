#!/usr/bin/env bash
# CI's fuzzing smoke: every target for 60 seconds on its stored corpus (docs/reliability.md, "Fuzzing").
exec "$(dirname "$0")/run.sh" all 60
