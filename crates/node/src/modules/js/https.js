'use strict';
// node:https, the client side: node:http's client with TLS (done by the host's client,
// rustls with the webpki roots) and port 443 by default.

const http = require('node:http');

class Agent extends http.Agent {
  constructor(options = {}) {
    super(options);
    this.defaultPort = 443;
    this.protocol = 'https:';
  }
}

const globalAgent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 });

module.exports = {
  Agent,
  globalAgent,
  createServer: http.refuseServer,
  Server: http.refuseServer,
  ...http.define({ protocol: 'https:', port: 443, keep: {}, Agent, globalAgent }),
};
