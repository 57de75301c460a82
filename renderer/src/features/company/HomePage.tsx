import { useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { useUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { MediaList } from '../../components/MediaList';
import { Empty, QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { companyKeys, getCompanyIntro } from './api';

export function HomePage() {
  const user = useUser();
  const intro = useQuery(companyKeys.intro, getCompanyIntro);
  return (
    <>
      <PageHeader title={`Welcome, ${user.full_name || user.username}`} subtitle="Start with who we are, then work through products, courses and exams." />
      <div className="shortcut-row">
        <Link to="/products" className="shortcut">
          <strong>Products</strong>
          <span>Know what you sell</span>
        </Link>
        <Link to="/courses" className="shortcut">
          <strong>Courses</strong>
          <span>Learn how to sell it</span>
        </Link>
        <Link to="/exams" className="shortcut">
          <strong>Exams</strong>
          <span>Test yourself</span>
        </Link>
        <Link to="/coach" className="shortcut">
          <strong>AI coach</strong>
          <span>Practise a conversation</span>
        </Link>
      </div>
      <QueryView query={intro}>
        {(data) => (
          <div className="detail-layout">
            <section className="panel">
              <h2 className="panel-title">About the company</h2>
              {data.content.trim() ? <RichText content={data.content} /> : <Empty>The company introduction has not been written yet.</Empty>}
            </section>
            <section className="panel">
              <h2 className="panel-title">Company media</h2>
              <MediaList medias={data.medias} emptyText="No approved company media yet." />
            </section>
          </div>
        )}
      </QueryView>
    </>
  );
}
