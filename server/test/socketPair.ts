// A connected pair of sockets on loopback, for tests of what the edge does with an accepted socket.
import net from "node:net";

export interface SocketPair {
  /** The accepted end, as a server's 'connection' listener gets it. */
  server: net.Socket;
  client: net.Socket;
  close(): void;
}

export async function socketPair(): Promise<SocketPair> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const accepted = new Promise<net.Socket>((resolve) => listener.once("connection", resolve));
  const client = net.connect((listener.address() as net.AddressInfo).port, "127.0.0.1");
  const server = await accepted;
  await new Promise((resolve) => (client.connecting ? client.once("connect", resolve) : resolve(undefined)));
  return {
    server,
    client,
    close() {
      server.destroy();
      client.destroy();
      listener.close();
    },
  };
}
