"""The Discord edge: the client with its services, the interaction controller, the publisher of
table messages, turn pings, hand DMs, the request pacer, the render workers and ack statistics."""
