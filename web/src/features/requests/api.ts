import {
  type GuestUploadReceipt,
  GuestUploadReceiptResponse,
  SHARE_PASSWORD_HEADER,
  type UploadRequestGuestInfo,
  UploadRequestGuestInfoResponse,
} from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** The password typed for a protected link goes in a header, never in the URL. */
export const passwordHeaders = (password: string | null): Record<string, string> =>
  password ? { [SHARE_PASSWORD_HEADER]: password } : {};

const requestPath = (token: string) => `/api/requests/${encodeURIComponent(token)}`;

/** The link's texts and the room left (a guest never sees the folder). Signed out: no token is sent. */
export async function fetchGuestInfo(
  token: string,
  password: string | null,
): Promise<UploadRequestGuestInfo> {
  return UploadRequestGuestInfoResponse.parse(
    await apiFetch(requestPath(token), { headers: passwordHeaders(password), token: null }),
  ).data;
}

/** Lists the finished upload in the owner's folder (if the last byte's request did not) and returns the receipt. */
export async function fetchReceipt(uploadUrl: string, password: string | null): Promise<GuestUploadReceipt> {
  const path = new URL(uploadUrl, window.location.origin).pathname;
  return GuestUploadReceiptResponse.parse(
    await apiFetch(`${path}/complete`, { method: 'POST', headers: passwordHeaders(password), token: null }),
  ).data;
}
