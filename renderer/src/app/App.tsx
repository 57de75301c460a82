import { SessionProvider, useSession } from './session';
import { Shell } from './Shell';
import { LoginPage } from '../features/auth/LoginPage';
import { Loading } from '../components/states';

function Gate() {
  const { user } = useSession();
  if (user === undefined) return <Loading label="Opening Trainbench…" />;
  return user ? <Shell /> : <LoginPage />;
}

export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}
