import net from 'node:net';

/**
 * Commands to a running ffmpeg's filters (issue 48): ffmpeg's `azmq` filter answers ZeroMQ requests on a
 * local socket ("<filter> <command> <argument>" → "<code> <message>") and hands each to the named filter
 * before its next frame. This is the client's half of ZMTP 3.0 (a REQ socket, the NULL mechanism: no
 * security, which is why the socket is a Unix socket in a directory only this user can open), about
 * what libzmq would do for one request at a time; no native module is needed for it.
 */
export class FilterCommands {
  private socket: net.Socket | null = null;
  private connecting: Promise<net.Socket> | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private greeted = false;
  private ready = false;
  private readonly waiting: { resolve: (reply: string) => void; reject: (err: Error) => void }[] = [];
  /** Requests go one at a time (REQ/REP is lockstep): each waits for the one before. */
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /**
   * Sends one command and resolves with ffmpeg's answer ("0 Success"), or rejects (the socket is not
   * there yet after `connectMs`, ffmpeg ended, or it did not answer within `timeoutMs`).
   */
  send(command: string, o: { connectMs?: number; timeoutMs?: number } = {}): Promise<string> {
    const run = async () => {
      const socket = await this.connect(o.connectMs ?? 2000);
      return await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new Error('ffmpeg did not answer the filter command'));
          // A reply that comes later would be taken for the next request's: start again.
          this.reset();
        }, o.timeoutMs ?? 2000);
        const entry = {
          resolve: (r: string) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        this.waiting.push(entry);
        const body = Buffer.from(command, 'utf8');
        // An empty delimiter frame (MORE), then the message.
        socket.write(Buffer.concat([Buffer.from([0x01, 0x00]), frameHeader(0x00, body.length), body]));
      });
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  close(): void {
    this.closed = true;
    this.reset();
  }

  private reset(): void {
    const socket = this.socket;
    this.socket = null;
    this.connecting = null;
    this.buffer = Buffer.alloc(0);
    this.greeted = false;
    this.ready = false;
    socket?.destroy();
    for (const w of this.waiting.splice(0)) w.reject(new Error('the filter command socket closed'));
  }

  private connect(withinMs: number): Promise<net.Socket> {
    if (this.closed) return Promise.reject(new Error('closed'));
    if (this.socket && this.ready) return Promise.resolve(this.socket);
    this.connecting ??= this.open(withinMs).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Connects (retrying while ffmpeg has not bound the socket yet) and does the ZMTP handshake. */
  private async open(withinMs: number): Promise<net.Socket> {
    const deadline = performance.now() + withinMs;
    for (;;) {
      try {
        return await this.handshake();
      } catch (err) {
        if (this.closed || performance.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  }

  private handshake(): Promise<net.Socket> {
    return new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(this.path);
      let settled = false;
      const fail = (err: Error) => {
        socket.destroy();
        if (this.socket === socket) this.reset();
        if (!settled) {
          settled = true;
          reject(err);
        }
      };
      socket.on('error', fail);
      socket.on('close', () => fail(new Error('the filter command socket closed')));
      socket.on('connect', () => {
        this.socket = socket;
        this.buffer = Buffer.alloc(0);
        this.greeted = false;
        this.ready = false;
        socket.write(GREETING);
        socket.write(READY);
      });
      socket.on('data', (d: Buffer) => {
        if (this.socket !== socket) return;
        this.buffer = this.buffer.length ? Buffer.concat([this.buffer, d]) : d;
        try {
          this.parse();
        } catch (err) {
          fail(err as Error);
          return;
        }
        if (this.ready && !settled) {
          settled = true;
          resolve(socket);
        }
      });
    });
  }

  /** Reads the peer's greeting, its READY, then replies (a delimiter frame and one body frame each). */
  private parse(): void {
    if (!this.greeted) {
      if (this.buffer.length < 64) return;
      if (this.buffer[0] !== 0xff || this.buffer[9] !== 0x7f || (this.buffer[10] ?? 0) < 3) {
        throw new Error('not a ZMTP 3 peer');
      }
      this.greeted = true;
      this.buffer = this.buffer.subarray(64);
    }
    for (;;) {
      const frame = readFrame(this.buffer);
      if (!frame) return;
      this.buffer = this.buffer.subarray(frame.length);
      if (frame.command) {
        // READY (the only command of the NULL mechanism) or ERROR.
        const name = frame.body.subarray(1, 1 + (frame.body[0] ?? 0)).toString('latin1');
        if (name === 'READY') this.ready = true;
        else throw new Error(`ZMTP ${name}`);
        continue;
      }
      if (frame.body.length === 0 && frame.more) continue; // the reply's delimiter
      this.waiting.shift()?.resolve(frame.body.toString('utf8'));
    }
  }
}

function frameHeader(flags: number, size: number): Buffer {
  if (size < 256) return Buffer.from([flags, size]);
  const b = Buffer.alloc(9);
  b[0] = flags | 0x02;
  b.writeBigUInt64BE(BigInt(size), 1);
  return b;
}

function readFrame(b: Buffer): { command: boolean; more: boolean; body: Buffer; length: number } | null {
  if (b.length < 2) return null;
  const flags = b[0] ?? 0;
  const long = (flags & 0x02) !== 0;
  const head = long ? 9 : 2;
  if (b.length < head) return null;
  const size = long ? Number(b.readBigUInt64BE(1)) : (b[1] ?? 0);
  if (b.length < head + size) return null;
  return {
    command: (flags & 0x04) !== 0,
    more: (flags & 0x01) !== 0,
    body: b.subarray(head, head + size),
    length: head + size,
  };
}

/** ZMTP 3.0 greeting: signature, version 3.0, mechanism NULL, as-server 0, filler. */
const GREETING = (() => {
  const g = Buffer.alloc(64);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3;
  g[11] = 0;
  g.write('NULL', 12, 'latin1');
  return g;
})();

/** The NULL mechanism's READY command with our socket type. */
const READY = (() => {
  const name = Buffer.from('Socket-Type', 'latin1');
  const value = Buffer.from('REQ', 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(value.length);
  const body = Buffer.concat([
    Buffer.from([5]),
    Buffer.from('READY', 'latin1'),
    Buffer.from([name.length]),
    name,
    len,
    value,
  ]);
  return Buffer.concat([frameHeader(0x04, body.length), body]);
})();
