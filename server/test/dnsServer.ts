// A real DNS server on loopback UDP (dns2), with records the test sets, for the custom-domain
// checks: Berth's resolver is pointed at it with BERTH_DNS_SERVERS, as an operator would.
import { Packet, UDPServer } from "dns2";
import type DNS from "dns2";

export interface ZoneEntry {
  txt?: string[];
  cname?: string;
  a?: string[];
  aaaa?: string[];
}

const TTL = 1;
const SERVFAIL = 2;
const NXDOMAIN = 3;

export class TestDnsServer {
  /** Name (lower case, no trailing dot) → its records. */
  readonly zone = new Map<string, ZoneEntry>();
  /** Names answered with SERVFAIL, as a broken or unreachable authority would be. */
  readonly failing = new Set<string>();
  /** Every question asked, "TYPE name". */
  readonly asked: string[] = [];

  private constructor(private readonly server: UDPServer) {}

  static async start(): Promise<TestDnsServer> {
    const server = new UDPServer({ type: "udp4" });
    const dns = new TestDnsServer(server);
    server.on("request", (request: DNS.Packet, send: (response: DNS.Packet) => Promise<Buffer>) => {
      void send(dns.answer(request)).catch(() => {});
    });
    await server.listen(0, "127.0.0.1");
    return dns;
  }

  /** `ip:port`, the form BERTH_DNS_SERVERS takes. */
  get address(): string {
    const { address, port } = this.server.address();
    return `${address}:${port}`;
  }

  set(name: string, entry: ZoneEntry): void {
    this.zone.set(name.toLowerCase(), { ...this.zone.get(name.toLowerCase()), ...entry });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: DNS.Packet): DNS.Packet {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) return response;
    const name = question.name.toLowerCase().replace(/\.$/, "");
    this.asked.push(`${typeName(question.type)} ${name}`);
    if (this.failing.has(name)) {
      response.header.rcode = SERVFAIL;
      return response;
    }
    const entry = this.zone.get(name);
    if (!entry) {
      response.header.rcode = NXDOMAIN;
      return response;
    }
    const add = (owner: string, record: Partial<DNS.Packet.Resource>) =>
      response.answers.push({ name: owner, class: Packet.CLASS.IN, ttl: TTL, ...record } as DNS.Packet.Resource);
    switch (question.type) {
      case Packet.TYPE.TXT:
        for (const data of entry.txt ?? []) add(name, { type: Packet.TYPE.TXT, data });
        break;
      case Packet.TYPE.CNAME:
        if (entry.cname) add(name, { type: Packet.TYPE.CNAME, domain: entry.cname });
        break;
      case Packet.TYPE.A:
      case Packet.TYPE.AAAA: {
        // Like a recursive resolver: the CNAME, then the target's addresses.
        let owner = name;
        let current: ZoneEntry | undefined = entry;
        if (entry.cname) {
          add(name, { type: Packet.TYPE.CNAME, domain: entry.cname });
          owner = entry.cname;
          current = this.zone.get(entry.cname);
        }
        const v6 = question.type === Packet.TYPE.AAAA;
        for (const address of (v6 ? current?.aaaa : current?.a) ?? []) add(owner, { type: question.type, address });
        break;
      }
    }
    return response;
  }
}

function typeName(type: number): string {
  return Object.entries(Packet.TYPE).find(([, value]) => value === type)?.[0] ?? String(type);
}
