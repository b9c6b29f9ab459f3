// Preloaded with `node --import ./exit-with-stdin.mjs <script>` to make a third-party server
// (server-everything) exit when its standard input closes, as the mcpx peers do themselves:
// a JVM that dies without stopping it then does not leak the Node process.
const exit = () => process.exit(0);
process.stdin.on('end', exit);
process.stdin.on('close', exit);
process.stdin.on('error', exit);
process.stdin.resume();
process.on('SIGTERM', exit);
