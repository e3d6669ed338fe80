import { createDecipheriv } from 'node:crypto';

/** One RTP packet the bot sent, decrypted: the Opus payload and when it arrived. */
export type ReceivedPacket = {
  ssrc: number;
  sequence: number;
  timestamp: number;
  opus: Buffer;
  receivedAt: number;
};

/** Opus's three-byte silence frame, which the voice library sends around pauses and stops. */
export function isSilenceFrame(opus: Buffer): boolean {
  return opus.length === 3 && opus[0] === 0xf8 && opus[1] === 0xff && opus[2] === 0xfe;
}

/**
 * Decrypts an `aead_aes256_gcm_rtpsize` packet (Discord voice docs, "Transport Encryption"): the
 * unencrypted part is the 12-byte RTP header plus CSRCs and, with the X bit, the 4-byte extension
 * header; that part is the AAD. Then ciphertext, a 16-byte tag, and a 4-byte big-endian nonce counter
 * (the AES-GCM nonce is that counter followed by 8 zero bytes). The extension body is encrypted and is
 * stripped from the plaintext.
 */
export function decryptRtp(packet: Buffer, key: Buffer): Omit<ReceivedPacket, 'receivedAt'> | null {
  if (packet.length < 12 + 16 + 4 || (packet[0] ?? 0) >> 6 !== 2) return null;
  const first = packet[0] ?? 0;
  const csrcCount = first & 0x0f;
  const hasExtension = (first & 0x10) !== 0;
  let headerEnd = 12 + csrcCount * 4;
  let extensionWords = 0;
  if (hasExtension) {
    extensionWords = packet.readUInt16BE(headerEnd + 2);
    headerEnd += 4;
  }
  const aad = packet.subarray(0, headerEnd);
  const nonceCounter = packet.subarray(packet.length - 4);
  const tag = packet.subarray(packet.length - 4 - 16, packet.length - 4);
  const ciphertext = packet.subarray(headerEnd, packet.length - 4 - 16);
  const nonce = Buffer.concat([nonceCounter, Buffer.alloc(8)]);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  const plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  return {
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
    opus: plain.subarray(extensionWords * 4),
  };
}
