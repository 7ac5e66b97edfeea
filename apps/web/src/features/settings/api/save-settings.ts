import type { MeResponse, UserSettings } from '@mirror/contract';
import { api } from '../../../lib/api-client';

export function saveSettings(settings: UserSettings): Promise<MeResponse> {
  return api.put<MeResponse>('/auth/me/settings', settings, {
    defaultMessage: 'Failed to save settings.',
  });
}
