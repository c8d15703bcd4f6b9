# syntax=docker/dockerfile:1
# The Kap Shap bot in a container (docs/operations.md). Two stages: the first builds the wheels
# of the project and of every dependency and installs them into a virtual environment; the
# second copies that environment onto a slim Python that has nothing to build anything with.
#
#   docker build -t kapshap .
#   docker run --env-file .env -v kapshap-data:/var/lib/kapshap/data kapshap          # kapshap run
#   docker run --rm kapshap db check --url postgresql://…                              # any command
#
# tests/test_deploy.py parses this file and runs its commands outside a container.

# Bookworm: its postgresql-client is 15, the server compose.yaml runs (pg_dump must be of the
# server's major version or newer).
ARG PYTHON_IMAGE=python:3.12-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
# numba: the compiled kernel the master level and the reviews run (docs/architecture.md,
# section 7), the same requirement as the sim extra's. Without it the master would search with
# a fiftieth of its budget. The sim extra's other half (matplotlib, for `kapshap sim --plot`)
# stays out: the bot never draws a plot. The fonts of the pictures are ordinary dependencies
# (fontpkg-noto-sans, noto-cjk-sans-otc): their wheels carry the font files.
RUN pip wheel --wheel-dir /wheels . "numba>=0.60" \
    && python -m venv /opt/kapshap \
    && /opt/kapshap/bin/pip install --no-index --find-links /wheels kapshap-bot numba

FROM ${PYTHON_IMAGE}
# pg_dump and pg_restore: `kapshap db backup` on PostgreSQL runs pg_dump.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
# The bot runs as kapshap, never as root. Its home is the working directory: the SQLite file
# (data/kapshap.sqlite3 by default) and the backups live in the volumes mounted below it.
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/kapshap --create-home \
        --shell /usr/sbin/nologin kapshap \
    && mkdir -p /var/lib/kapshap/data /var/lib/kapshap/backups /var/cache/kapshap/numba \
    && chown -R kapshap:kapshap /var/lib/kapshap /var/cache/kapshap
COPY --from=build /opt/kapshap /opt/kapshap
# NUMBA_CACHE_DIR: the kernel's disk cache, filled below. NUMBA_CPU_NAME=generic: code for any
# x86-64 (or any arm64) processor, so the cache made on the machine that builds the image is
# valid on the one that runs it; with the host's processor name a different processor would
# miss the cache and compile again at run time. The .pyc files were written by pip install.
ENV PATH=/opt/kapshap/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/var/cache/kapshap/numba \
    NUMBA_CPU_NAME=generic
USER kapshap
WORKDIR /var/lib/kapshap
# Compile the kernel now, into the image, so that nothing compiles when a container starts (the
# bot's own background warm-up then only loads the cache); and prove the command runs.
RUN python -m bot.ai.warm \
    && kapshap --version
ENTRYPOINT ["kapshap"]
CMD ["run"]
