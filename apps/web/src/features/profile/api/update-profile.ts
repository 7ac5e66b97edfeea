import type { MeResponse, UpdateProfileBody } from '@mirror/contract';
import { api } from '../../../lib/api-client';

export function updateProfile(body: UpdateProfileBody): Promise<MeResponse> {
  return api.put<MeResponse>('/auth/me', body, { defaultMessage: 'Failed to update profile.' });
}
