import { Link } from '../../app/router';
import { PageHeader } from '../../components/PageHeader';
import { CategoryFilter, useCategoryList } from '../../components/CategoryFilter';
import { Empty, QueryView } from '../../components/states';
import { humanize, plural } from '../../components/format';
import { courseKeys, listCourses } from './api';

export function CoursesPage() {
  const { category, categories, list, select } = useCategoryList('/courses', courseKeys.list, listCourses);

  return (
    <>
      <PageHeader title="Courses" subtitle="Sales courses with the products they cover." />
      <CategoryFilter label="Filter by category" categories={categories} value={category} onChange={select} />
      <QueryView query={list}>
        {(courses) =>
          courses.length ? (
            <ul className="card-grid" aria-label="Courses">
              {courses.map((course) => (
                <li key={course.id}>
                  <Link to={`/courses/${course.id}`} className="card card-link">
                    <div className="card-eyebrow">{humanize(course.category) || 'General'}</div>
                    <h2 className="card-title">{course.title}</h2>
                    <div className="card-meta">
                      {course.duration_minutes ? `${course.duration_minutes} min · ` : ''}
                      {plural(course.product_ids.length, 'product')}
                    </div>
                    <p className="card-text">{course.summary || 'No summary yet.'}</p>
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <Empty>No courses in this category yet.</Empty>
          )
        }
      </QueryView>
    </>
  );
}
