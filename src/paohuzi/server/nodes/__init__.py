"""nodes: many servers over one PostgreSQL and one Redis (issue 24, step 2)."""
