"""The HTTP API and the web page of ``golfsolve serve`` (needs the ``serve`` extra: starlette, uvicorn)."""
