FROM python:3.11-slim
WORKDIR /srv/warroom
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
# editable: the server finds migrations/ beside app/
RUN pip install --no-cache-dir -e .
ENV HOST=0.0.0.0 PORT=8000 WARROOM_DATA=/var/lib/warroom
EXPOSE 8000
CMD ["python", "-m", "app", "serve"]
