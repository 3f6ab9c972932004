#!/bin/sh
# docker compose's nats-secrets service runs this before anything else starts
# (docker-compose.yml): it makes the deployment's NATS secrets once, into the
# operator's volume, and hands each part of the deployment only its own:
#   /nats     the servers' certificate and key, the CA, and the config they include
#   /worker   the workers' NKey and the CA           /gateway   the gateways' NKey and the CA
# The admin NKey and the CA's key stay in /operator (docs/distributed.md,
# "Securing NATS", says how to take them out and how to rotate).
set -eu
node services/cli/bin.js nats-secrets --out /operator --hosts n1,n2,n3 --config-dir /etc/nats/secrets
cp /operator/ca.pem /operator/server.pem /operator/server.key /operator/auth.conf /operator/tls.conf /operator/route-tls.conf /nats/
for role in worker gateway; do
  cp /operator/ca.pem "/operator/$role.nk" "/$role/"
  # The service runs as the image's node user (uid 1000); the key stays unreadable to anyone else.
  chown 1000:1000 "/$role/$role.nk"
  chmod 0400 "/$role/$role.nk"
done
