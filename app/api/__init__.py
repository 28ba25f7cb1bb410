"""HTTP and WebSocket adapters: thin routers over app.sessions."""
