"""The HTTP API and the websocket by resource, one ``APIRouter`` each: thin routes that parse,
call a service and answer (docs/ARCHITECTURE.md, the server)."""
