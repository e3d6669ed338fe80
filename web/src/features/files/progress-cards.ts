/** A floating progress card (portal-tools §2, §4): one per upload or download. */
export type ProgressCard = {
  id: string;
  kind: 'upload' | 'download';
  name: string;
  /** 0–100 for uploads; downloads have no byte progress here (the browser's download manager shows it). */
  progress: number;
  /** Upload only: bytes of the request body sent so far, and the file size. */
  sentBytes?: number;
  totalBytes?: number;
  state: 'active' | 'completed' | 'error';
  /** A resumable upload lost its connection and is about to continue ("Reconnecting…"). */
  reconnecting?: boolean;
  message?: string;
};

let seq = 0;
export const cardId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;
