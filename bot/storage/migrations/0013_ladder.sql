-- Placeholder: the number is reserved for another branch (replaced when merged).
SELECT 1;
