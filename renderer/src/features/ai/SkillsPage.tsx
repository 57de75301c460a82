import { DefinitionsPage } from './DefinitionsPage';

export default function SkillsPage() {
  return <DefinitionsPage kind="skill" />;
}
