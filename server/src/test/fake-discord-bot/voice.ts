import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { decryptRtp, type ReceivedPacket } from './rtp.ts';

const tlsDir = new URL('./tls/', import.meta.url);
/** The test CA that signed the fake's voice certificate: give its path to the bot's process as NODE_EXTRA_CA_CERTS. */
export const TEST_CA_PATH = new URL('ca.pem', tlsDir).pathname;

export const VOICE_MODE = 'aead_aes256_gcm_rtpsize';

/** What the bot said in its voice Identify (op 0). */
export type VoiceIdentify = {
  server_id: string;
  user_id: string;
  session_id: string;
  token: string;
  max_dave_protocol_version?: number;
};

export type VoiceEvents = {
  identify: [VoiceIdentify];
  /** op 5 from the bot: `speaking` is 0 when it stops (after a pause or stop) and non-zero when it starts. */
  speaking: [{ speaking: number; at: number }];
  packet: [ReceivedPacket];
  closed: [];
};

/**
 * Discord's voice side as the bot sees it: a voice gateway v8 over TLS (hello, identify → ready,
 * select protocol → session description with `dave_protocol_version: 0`, heartbeat ACKs, speaking)
 * and a UDP socket that answers IP discovery and receives, decrypts and records RTP.
 */
export class FakeVoiceServer extends EventEmitter<VoiceEvents> {
  readonly packets: ReceivedPacket[] = [];
  readonly identifies: VoiceIdentify[] = [];
  readonly speaking: { speaking: number; at: number }[] = [];
  /** Each voice connection's key, by the SSRC it was given (one bot, many guilds, one UDP socket). */
  private keys = new Map<number, Buffer>();
  private https = https.createServer({
    key: readFileSync(new URL('key.pem', tlsDir)),
    cert: readFileSync(new URL('cert.pem', tlsDir)),
  });
  private wss = new WebSocketServer({ server: this.https });
  private udp = dgram.createSocket('udp4');
  private nextSsrc = 1000;
  private refusing = false;
  /** How many voice sessions were resumed (op 7). */
  resumes = 0;
  private port: number | undefined;
  private readonly sessions = new Map<WebSocket, string>();

  async start(): Promise<void> {
    this.wss.on('connection', (ws) => {
      let seq = 0;
      let ssrc = 0;
      const send = (op: number, d: unknown) => ws.send(JSON.stringify({ op, d, seq: ++seq }));
      send(8, { heartbeat_interval: 13_750 });
      ws.on('message', (raw, isBinary) => {
        if (isBinary) return; // DAVE binary opcodes: not offered (protocol version 0)
        const msg = JSON.parse(String(raw)) as { op: number; d: Record<string, unknown> };
        if (msg.op === 0) {
          const id = msg.d as VoiceIdentify;
          this.identifies.push(id);
          this.sessions.set(ws, id.server_id);
          this.emit('identify', id);
          ssrc = this.nextSsrc++;
          send(2, {
            ssrc,
            ip: '127.0.0.1',
            port: (this.udp.address() as AddressInfo).port,
            modes: [VOICE_MODE],
          });
        } else if (msg.op === 1) {
          const key = randomBytes(32);
          this.keys.set(ssrc, key);
          send(4, { mode: VOICE_MODE, secret_key: [...key], dave_protocol_version: 0 });
        } else if (msg.op === 7) {
          // Resume (after close codes such as 4015 "voice server crashed"): the session, its SSRC and
          // key carry on; Discord answers Resumed (op 9).
          this.sessions.set(ws, String(msg.d.server_id));
          this.resumes++;
          send(9, null);
        } else if (msg.op === 3) {
          send(6, { t: msg.d.t });
        } else if (msg.op === 5) {
          const event = { speaking: Number(msg.d.speaking), at: performance.now() };
          this.speaking.push(event);
          this.emit('speaking', event);
        }
      });
      ws.on('close', () => {
        this.sessions.delete(ws);
        this.emit('closed');
      });
    });
    this.udp.on('message', (msg, rinfo) => {
      if (msg.length === 74 && msg.readUInt16BE(0) === 1) {
        const reply = Buffer.alloc(74);
        reply.writeUInt16BE(2, 0);
        reply.writeUInt16BE(70, 2);
        reply.writeUInt32BE(msg.readUInt32BE(4), 4);
        reply.write(rinfo.address, 8, 'utf8');
        reply.writeUInt16BE(rinfo.port, 72);
        this.udp.send(reply, rinfo.port, rinfo.address);
        return;
      }
      if (msg.length <= 12) return; // keepalive
      const key = this.keys.get(msg.readUInt32BE(8));
      if (!key) return;
      const packet = decryptRtp(msg, key);
      if (!packet) return;
      const received = { ...packet, receivedAt: performance.now() };
      this.packets.push(received);
      this.emit('packet', received);
    });
    await new Promise<void>((resolve) => this.udp.bind(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => this.https.listen(0, '127.0.0.1', resolve));
  }

  /**
   * Closes a guild's voice session the way Discord does when the bot is removed from its channel:
   * close code 4014 ("Disconnected"), after which the client should not resume.
   */
  disconnectGuild(guildId: string): void {
    for (const [ws, serverId] of this.sessions) if (serverId === guildId) ws.close(4014, 'Disconnected');
  }

  /**
   * An outage of the voice server: every voice connection is cut and new ones are refused
   * (ECONNREFUSED) until `accept()`. The UDP socket stays (Discord's media servers answer nothing
   * while their gateway is away; the bot's packets are simply not taken).
   */
  async refuse(): Promise<void> {
    this.refusing = true;
    this.port ??= (this.https.address() as AddressInfo).port;
    for (const ws of this.wss.clients) ws.terminate();
    this.https.closeAllConnections();
    await new Promise<void>((resolve) => this.https.close(() => resolve()));
  }

  /** The voice server is back on the same address. */
  async accept(): Promise<void> {
    if (!this.refusing) return;
    this.refusing = false;
    await new Promise<void>((resolve) => this.https.listen(this.port, '127.0.0.1', resolve));
  }

  /** Closes every voice connection with a close code (4006 session invalid, 4015 voice server crashed…). */
  closeAll(code: number, reason = 'fake outage'): void {
    for (const ws of this.wss.clients) ws.close(code, reason);
  }

  /** `host:port` as VOICE_SERVER_UPDATE hands it out (no scheme: the library adds `wss://`). */
  get endpoint(): string {
    this.port ??= (this.https.address() as AddressInfo).port;
    return `127.0.0.1:${this.port}`;
  }

  /** Packets received after `since` (a performance.now() time). */
  packetsSince(since: number): ReceivedPacket[] {
    return this.packets.filter((p) => p.receivedAt >= since);
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.https.closeAllConnections();
    if (!this.refusing) await new Promise<void>((resolve) => this.https.close(() => resolve()));
    await new Promise<void>((resolve) => this.udp.close(() => resolve()));
  }
}
