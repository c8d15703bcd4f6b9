-- 0011_lessons: each member's progress through the lessons of /learn (issue 22).
--
--   lesson_progress  one row per member and lesson (the lesson's stable key, e.g.
--                    kap-shap-tiles): the next step to answer, the wrong answers given since
--                    the lesson was (re)started, whether it was ever finished and the best
--                    stars earned (0 before it is finished, then 1-3).
--
-- Written in the SQL both backends share (issue 20, decision 3). Same conventions as 0001.

CREATE TABLE lesson_progress (
    user_id    INTEGER NOT NULL,
    lesson     TEXT    NOT NULL,
    step       INTEGER NOT NULL DEFAULT 0,
    mistakes   INTEGER NOT NULL DEFAULT 0,
    done       INTEGER NOT NULL DEFAULT 0,
    stars      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (user_id, lesson)
) STRICT, WITHOUT ROWID;
