#!/bin/sh
alembic upgrade head
