import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useNotifications } from '../notifications/NotificationsContext';
import { useAuth } from './AuthContext';

/** Sign out, then the sign-in page; a failure says so (spec §8 'Failed to sign out'). The sidebar and Settings both offer it. */
export function useSignOut(): { signOut: () => Promise<void>; signingOut: boolean } {
  const { signOut } = useAuth();
  const { notify } = useNotifications();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  return {
    signingOut,
    signOut: async () => {
      setSigningOut(true);
      try {
        await signOut();
        void navigate('/auth', { replace: true });
      } catch {
        notify({ type: 'error', title: 'Error', message: 'Failed to sign out' });
        setSigningOut(false);
      }
    },
  };
}
