"""``romecore serve``: play against the agents in a browser.

:func:`romecore.web.app.create_app` builds the Starlette app (the page, its websocket
protocol), :mod:`romecore.web.sessions` holds the games.  Needs the ``web`` extra
(starlette, uvicorn with websockets).
"""
