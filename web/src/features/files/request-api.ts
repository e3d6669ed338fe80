import {
  type UploadRequest,
  type UploadRequestCreateBody,
  UploadRequestResponse,
  UploadRequestsListResponse,
} from '@guildhall/common';
import { apiFetch } from '../../api/client.ts';

/** A member's upload links (issue 45): all of them, newest first. */
export async function fetchUploadRequests(): Promise<UploadRequest[]> {
  return UploadRequestsListResponse.parse(await apiFetch('/api/upload-requests')).data;
}

export async function createUploadRequest(body: UploadRequestCreateBody): Promise<UploadRequest> {
  return UploadRequestResponse.parse(await apiFetch('/api/upload-requests', { method: 'POST', body })).data;
}

export async function closeUploadRequest(id: string): Promise<UploadRequest> {
  return UploadRequestResponse.parse(
    await apiFetch(`/api/upload-requests/${encodeURIComponent(id)}/close`, { method: 'POST' }),
  ).data;
}
