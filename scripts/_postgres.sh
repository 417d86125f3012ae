# Sourced by scripts/test: start_private_postgres starts a throw-away PostgreSQL cluster (trust
# auth, loopback only, a free port, data in a temp dir) and sets PRIVATE_PG_URL; stop it with
# stop_private_postgres. For a fresh machine with no PostgreSQL running; installs the
# `postgresql` package with apt-get when run as root and it is missing.

PRIVATE_PG_DIR=""
PRIVATE_PG_URL=""

start_private_postgres() {
    local bindir
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bindir" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "==> Installing postgresql with apt-get"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    fi
    if [ -z "$bindir" ]; then
        echo "error: no PostgreSQL server found: apt-get install postgresql" >&2
        return 1
    fi
    local port
    port=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
    PRIVATE_PG_DIR=$(mktemp -d /tmp/skyjo-pg.XXXXXX)
    local run=(env)
    if [ "$(id -u)" = 0 ]; then  # initdb refuses to run as root
        chown postgres "$PRIVATE_PG_DIR"
        run=(runuser -u postgres --)
    fi
    echo "==> Starting a private PostgreSQL ($bindir) on port $port"
    "${run[@]}" "$bindir/initdb" -D "$PRIVATE_PG_DIR/data" -U postgres --auth=trust >/dev/null
    "${run[@]}" "$bindir/pg_ctl" -D "$PRIVATE_PG_DIR/data" -l "$PRIVATE_PG_DIR/log" -w \
        -o "-p $port -k $PRIVATE_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    PRIVATE_PG_URL="postgres://postgres@127.0.0.1:$port/skyjo"
    PRIVATE_PG_STOP=("${run[@]}" "$bindir/pg_ctl" -D "$PRIVATE_PG_DIR/data" -m fast -w stop)
}

stop_private_postgres() {
    if [ -n "$PRIVATE_PG_DIR" ]; then
        "${PRIVATE_PG_STOP[@]}" >/dev/null 2>&1 || true
        rm -rf "$PRIVATE_PG_DIR"
        PRIVATE_PG_DIR=""
    fi
}
