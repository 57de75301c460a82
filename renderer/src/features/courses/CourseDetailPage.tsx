import { useQuery } from '../../app/query';
import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { MediaList } from '../../components/MediaList';
import { Empty, QueryView } from '../../components/states';
import { RichText } from '../../components/RichText';
import { humanize } from '../../components/format';
import type { CourseDetail } from '../../api/types';
import { courseKeys, getCourse } from './api';

export function CourseDetailPage({ id }: { id: number }) {
  const course = useQuery(courseKeys.detail(id), (signal) => getCourse(id, signal));
  return <QueryView query={course}>{(c) => <Course course={c} />}</QueryView>;
}

function Course({ course }: { course: CourseDetail }) {
  return (
    <>
      <PageHeader
        back={<Link to="/courses">← All courses</Link>}
        title={course.title}
        subtitle={[humanize(course.category), course.duration_minutes ? `${course.duration_minutes} minutes` : ''].filter(Boolean).join(' · ')}
      />
      <div className="detail-layout">
        <div className="stack">
          <section className="panel">
            <h2 className="panel-title">Course</h2>
            {course.summary && <p className="lead">{course.summary}</p>}
            {course.content ? <RichText content={course.content} /> : !course.summary && <p className="muted">No course text yet.</p>}
          </section>
          <section className="panel">
            <h2 className="panel-title">Media</h2>
            <MediaList medias={course.medias} emptyText="No approved media for this course yet." />
          </section>
        </div>
        <aside className="panel">
          <h2 className="panel-title">Products in this course</h2>
          {course.products.length ? (
            <ul className="link-list">
              {course.products.map((product) => (
                <li key={product.id}>
                  <Link to={`/products/${product.id}`}>{product.name}</Link>
                  <span className="muted"> · {humanize(product.category)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <Empty>No products are bound to this course.</Empty>
          )}
        </aside>
      </div>
    </>
  );
}
