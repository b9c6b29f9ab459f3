/**
 * Internal: what a client has with its upstream in one protocol era: the legacy session
 * (handshake, session id, generation, single-flight renewal), the modern stateless
 * exchange, era detection, and the exchange of one request over a transport. Each method
 * makes one attempt. Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.session;

import org.jspecify.annotations.NullMarked;
