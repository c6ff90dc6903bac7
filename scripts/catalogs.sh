#!/usr/bin/env bash
# The gettext catalogs, engine/locale/LANG/LC_MESSAGES/tripoley.po (docs/languages.md):
#   bash scripts/catalogs.sh extract     the template engine/locale/tripoley.pot: the code's text (babel.cfg)
#                                        and the data's (scripts/data_texts.py: the command list, the mats, the phases)
#   bash scripts/catalogs.sh update      extract, then merge the template into every language's .po
#   bash scripts/catalogs.sh init LANG   a new language's .po, from the template
#   bash scripts/catalogs.sh compile     every .po into its .mo (scripts/setup.sh runs this; .mo files are
#                                        built, not committed)
# Runs in .venv (bash scripts/setup.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel=(.venv/bin/python -m babel.messages.frontend)  # as pybabel, also where .venv has no console scripts
template=engine/locale/tripoley.pot
what="${1:-}"
case "$what" in
  extract | update)
    "${pybabel[@]}" extract -F babel.cfg --no-wrap --sort-by-file --project tripoley-bot \
      --copyright-holder "The Tripoley Bot developers" -o "$template" engine images bot cogs
    .venv/bin/python scripts/data_texts.py "$template"
    if [ "$what" = update ]; then
      "${pybabel[@]}" update --no-wrap --no-fuzzy-matching -D tripoley -i "$template" -d engine/locale
    fi
    ;;
  init)
    "${pybabel[@]}" init -D tripoley -i "$template" -d engine/locale -l "${2:?say which language, e.g. it}"
    ;;
  compile)
    "${pybabel[@]}" compile -D tripoley -d engine/locale 2>&1 | { grep -v "^compiling catalog" >&2 || true; }
    ;;
  *)
    echo "catalogs: say extract, update, init LANG or compile." >&2
    exit 2
    ;;
esac
