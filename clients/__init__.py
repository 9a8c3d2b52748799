"""Client side of Tabletop Cartel: a typed HTTP SDK (`clients.sdk`) and the `cartel` CLI (`clients.cli`)."""
