#!/usr/bin/env bash
# Author a migration for both providers from the change in prisma/models.prisma:
#   (cd tools/prisma-migrate && npm install && ./new-migration.sh add_something)
# Needs a reachable PostgreSQL for the postgres diff (SHADOW_URL, default the local server).
set -euo pipefail
name=${1:?usage: new-migration.sh <name>}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
(cd "$root" && node scripts/generate.mjs >/dev/null)
stamp=$(date -u +%Y%m%d%H%M%S)
export NODE_OPTIONS="--require $here/unref-timers.cjs"
# Nothing native is started (the js engine runs in wasm), but the CLI checks for these files.
export PRISMA_QUERY_ENGINE_LIBRARY=${PRISMA_QUERY_ENGINE_LIBRARY:-$(command -v node)} PRISMA_SCHEMA_ENGINE_BINARY=${PRISMA_SCHEMA_ENGINE_BINARY:-$(command -v node)} PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
for db in sqlite postgres; do
  mkdir -p "$here/.work/$db"
  # The 6.19 CLI wants a url in the datasource block; the Prisma 7 copy has none.
  sed 's/^  provider = "\(sqlite\|postgresql\)"$/  provider = "\1"\n  url      = env("DATABASE_URL")/' "$root/prisma/$db/schema.prisma" \
    | sed '/^generator /,/^}/d' > "$here/.work/$db/schema.prisma"
  mkdir -p "$root/prisma/$db/migrations"
  [ -f "$root/prisma/$db/migrations/migration_lock.toml" ] || printf 'provider = "%s"\n' "$([ $db = postgres ] && echo postgresql || echo sqlite)" > "$root/prisma/$db/migrations/migration_lock.toml"
  out="$root/prisma/$db/migrations/${stamp}_${name}"
  if [ "$db" = postgres ]; then export DATABASE_URL=${SHADOW_URL:-postgresql://postgres@127.0.0.1:5432/postgres}; else export DATABASE_URL="file:$here/.work/author.db"; fi
  (cd "$here" && DB=$db npx prisma migrate diff --from-migrations "$root/prisma/$db/migrations" \
      --to-schema-datamodel ".work/$db/schema.prisma" --script) > "$here/.work/$db/migration.sql.tmp"
  # The full-text objects are hand-written (FTS5 table and triggers; PostgreSQL's generated
  # "searchVector" column and its GIN index) and unknown to the Prisma schema: drop the statements
  # the diff proposes against them, and the column's drop from an ALTER TABLE that does more.
  node -e '
    const fs = require("fs"); const f = process.argv[1];
    const text = fs.readFileSync(f, "utf8")
      .replace(/DROP COLUMN "searchVector",\n/g, "")
      .replace(/,\nDROP COLUMN "searchVector";/g, ";");
    const blocks = text.split(/\n(?=-- )/);
    const ours = (b) => /content_fts|Content_fts_|Content_searchVector_idx|^-- AlterTable\nALTER TABLE "Content" DROP COLUMN "searchVector";\s*$/.test(b);
    fs.writeFileSync(f, blocks.filter((b) => !ours(b)).join("\n"));
  ' "$here/.work/$db/migration.sql.tmp"
  if ! grep -q '[A-Za-z]' "$here/.work/$db/migration.sql.tmp" || grep -q 'This is an empty migration' "$here/.work/$db/migration.sql.tmp"; then
    echo "$db: no change"; continue
  fi
  mkdir -p "$out" && mv "$here/.work/$db/migration.sql.tmp" "$out/migration.sql"
  echo "$db: wrote $out/migration.sql"
done
