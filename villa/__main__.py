from villa.app.main import main

raise SystemExit(main())
